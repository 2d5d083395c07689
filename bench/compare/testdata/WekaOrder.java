// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// WekaOrder prints, for TestWekaOrder, the first attribute of every row of
// an ARFF file in the order in which Weka's VotedPerceptron visits them
// after its shuffle, Instances.randomize(new Random(seed)), and then values
// of java.util.Random.nextInt for the bounds and seed given.
//
// Usage: java -cp weka.jar WekaOrder.java file.arff seed rseed bound...
import java.io.FileReader;
import java.util.Random;
import weka.core.Instances;

public class WekaOrder {
	public static void main(String[] args) throws Exception {
		Instances data = new Instances(new FileReader(args[0]));
		data.randomize(new Random(Integer.parseInt(args[1])));
		for (int i = 0; i < data.numInstances(); i++) {
			System.out.println((int) data.instance(i).value(0));
		}
		Random r = new Random(Long.parseLong(args[2]));
		for (int k = 3; k < args.length; k++) {
			int bound = Integer.parseInt(args[k]);
			for (int i = 0; i < 8; i++) {
				System.out.println(r.nextInt(bound));
			}
		}
	}
}
